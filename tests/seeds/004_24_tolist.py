# From notes 004, block 24: fassi
import torch
torch.manual_seed(0)

# tensor to list
data = torch.zeros(3,3)
data = data.tolist()
