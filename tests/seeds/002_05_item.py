# From notes 002, block 5: 索引
import torch
torch.manual_seed(0)

x = torch.randn(1)
print(x)
print(x.item())
