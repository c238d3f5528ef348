# From notes 003, block 4: Module
import torch
torch.manual_seed(0)

for name, param in model.named_parameters():
    print(name, param.shape)
