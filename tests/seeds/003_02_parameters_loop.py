# From notes 003, block 2: Parameter
import torch
torch.manual_seed(0)

for param in model.parameters():
    print(param)
