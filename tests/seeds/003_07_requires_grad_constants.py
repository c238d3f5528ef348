# From notes 003, block 7: 计算图
import torch
torch.manual_seed(0)

x = torch.tensor([3.0], requires_grad=True)
y = torch.tensor([2.0], requires_grad=False)
z = x * y * 4
