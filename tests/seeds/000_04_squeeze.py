# From notes 000, block 4: torch.squeeze(x)
import torch
torch.manual_seed(0)

import torch
x = torch.zeros(1, 3, 1)
print(x.size())  # 输出: torch.Size([1, 3, 1])
x_squeezed = torch.squeeze(x)
print(x_squeezed.size())  # 输出: torch.Size([3])
