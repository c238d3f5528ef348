# From notes 004, block 28: bert pretrain
import torch
torch.manual_seed(0)

# --- pasted from earlier block 27 of the same notes: model_name, tokenizer ---
from transformers import BertTokenizer, BertConfig, BertForMaskedLM, BertForNextSentencePrediction
model_name = 'bert-base-chinese'
# 加载分词器
tokenizer = BertTokenizer.from_pretrained(model_name)
# --- block 28 (the example itself) ---
# encode仅返回input_ids
tokenizer.encode('手机')

# >> [101, 2797, 3322, 102]

# encode_plus 返回 input_ids(词典编码位置) , token_type_ids(上句为0，下句为1), attention_mask ：对哪些词进行self-attention

tokenizer.encode_plus('手机')

# >> {'input_ids': [101, 2797, 3322, 102], 
#     'token_type_ids': [0, 0, 0, 0], 
#     'attention_mask': [1, 1, 1, 1]}

tokenizer.encode_plus('手机','电脑')
# >> {'input_ids': [101, 2797, 3322, 102, 4510, 5554, 102], 
#     'token_type_ids': [0, 0, 0, 0, 1, 1, 1], 
#     'attention_mask': [1, 1, 1, 1, 1, 1, 1]}

#  convert_ids_to_tokens 将 编码变回文字
tokenizer.convert_ids_to_tokens(sen_code['input_ids'])
