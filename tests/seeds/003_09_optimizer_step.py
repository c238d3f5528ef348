# From notes 003, block 9: 计算图
import torch
torch.manual_seed(0)

optimizer.step()	# 使用参数的 .grad 来更新参数
