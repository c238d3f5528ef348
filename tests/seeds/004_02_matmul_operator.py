# From notes 004, block 2: 矩阵乘法
import torch
torch.manual_seed(0)

c = a @ b 
