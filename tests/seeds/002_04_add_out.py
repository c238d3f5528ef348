# From notes 002, block 4: 加法
import torch
torch.manual_seed(0)

result = torch.empty(5, 3)
torch.add(x, y, out=result)
print(result)
