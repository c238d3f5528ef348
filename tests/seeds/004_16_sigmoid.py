# From notes 004, block 16: sigmod
import torch
import torch.nn as nn
torch.manual_seed(0)

# sigmod 
f = nn.Sigmoid()
x = torch.randn(10)
y = m(x)

y.min()
y.max()
