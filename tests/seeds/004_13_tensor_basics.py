# From notes 004, block 13: one-hot
import torch
torch.manual_seed(0)

import torch

# create tensor 
x = torch.tensor(2,4)

# tensor type 
x.type()
x.dtype

#list to tensor 
l = [1,2,3]
x = torch.Tensor(l)

# index to item 
x[0]

#  create tensor 
torch.zeros(2,4)
torch.ones(2,4)
torch.eye(3)
torch.rand(2,4)
torch.arange(1,4)  # : tensor([1,2,3])

# 运算
torch.add(a,b) # 对应元素相加
x + 3  # tensor每个元素都+3

torch.dot(a,b) # 向量点积
torch.mv(a,b) # 矩阵与向量乘法
torch.mm(a,b)  # 矩阵乘法
