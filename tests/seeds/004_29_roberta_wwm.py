# From notes 004, block 29: hfl/chinese-roberta-wwm-ext
import torch
torch.manual_seed(0)



from transformers import AutoTokenizer, AutoModelForMaskedLM

tokenizer = AutoTokenizer.from_pretrained("hfl/chinese-roberta-wwm-ext")

model = AutoModelForMaskedLM.from_pretrained("hfl/chinese-roberta-wwm-ext")
