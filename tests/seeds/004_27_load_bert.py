# From notes 004, block 27: bert pretrain
import torch
torch.manual_seed(0)

下载bert-base-chinese的
# config.josn，vocab.txt，pytorch_model.bin三个文件后，
# 放在bert-base-chinese文件夹下，
# 此例中该文件夹放在目下下。


import numpy as np
import torch 
from transformers import BertTokenizer, BertConfig, BertForMaskedLM, BertForNextSentencePrediction
from transformers import BertModel

model_name = 'bert-base-chinese'
MODEL_PATH = './bert-base-chinese/'

# 加载分词器
tokenizer = BertTokenizer.from_pretrained(model_name)
# 导入配置文件
model_config = BertConfig.from_pretrained(model_name)
# 修改配置
model_config.output_hidden_states = True
model_config.output_attentions = True
# 通过配置和路径导入模型
bert_model = BertModel.from_pretrained(MODEL_PATH, config = model_config)
