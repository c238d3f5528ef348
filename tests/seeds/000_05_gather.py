# From notes 000, block 5: torch.gather()
import torch
torch.manual_seed(0)

input = torch.tensor([[1, 2, 3, 4],
                      [5, 6, 7, 8],
                      [9, 10, 11, 12]])
# 假设我们想从每一行中取出一个元素
index = torch.tensor([[0], [1], [2]])
# 用 torch.gather 在第1维上收集
output = torch.gather(input, 1, index)
