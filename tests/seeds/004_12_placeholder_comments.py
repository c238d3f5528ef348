# From notes 004, block 12: one-hot
import torch
torch.manual_seed(0)

# unsqueeze 

# contiguous

# view
