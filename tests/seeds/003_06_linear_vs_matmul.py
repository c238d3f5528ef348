# From notes 003, block 6: nn.Linear
import torch
torch.manual_seed(0)

import torch
import torch.nn as nn
linear = nn.Linear(100, 50)
x = torch.randn(10, 20, 100)
y1 = linear(x)
WT = linear.weight.transpose(0, 1).unsqueeze(0)
# b = linear.bias.unsqueeze(dim = 0).unsqueeze(dim = 0)
b = linear.bias.view(1, 1, -1)
y2 = torch.matmul(x, WT) + b
torch.allclose(y1, y2, atol=1e-6)
