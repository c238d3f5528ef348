# From notes 003, block 10: 计算图
import torch
torch.manual_seed(0)

optimizer.zero_grad()  # 需要手动清空梯度
