# From notes 001, block 1: torch.utils.data.Dataset
import torch
torch.manual_seed(0)

import datasets
class DatasetDataset(torch.utils.data.Dataset):
    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, idx):
        return (
            torch.LongTensor(self.dataset[idx]["input_ids"]),
            torch.LongTensor(self.dataset[idx]["input_ids"]),
        )
# DatasetDataset自定义map style dataset, 按元组的方式返回数据
# torch.utils.data.DataLoader 通过DataLoader加载dataset指定batch_size和shuffle等参数
# RepeatingLoader 允许数据无限迭代下去        
dataset = datasets.load_from_disk(args.dataset_path)     
dataloader = RepeatingLoader(torch.utils.data.DataLoader(
    DatasetDataset(dataset),
    batch_size=args.batch_size,
    shuffle=True
))   

for s in ...:
    generator = iter(dataloader)
    input_ids, labels = next(generator) #获取数据的输入和输出
    
#数据格式，一个样本数据一般为1行，sent2一般为空
{"id":...,"sent1":...,"sent2":...,"ending1":...,"ending2":...,"ending3":...,"label":3}
# 将上述数据拼成一个句子(sentence)，通过tokenizer.encode(sentence)生成token    
