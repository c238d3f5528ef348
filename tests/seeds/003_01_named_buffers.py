# From notes 003, block 1: Buffer
import torch
torch.manual_seed(0)

for name, buf in model.named_buffers():
    print(name, buf.shape)
