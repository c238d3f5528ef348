# From notes 000, block 1: torch.clamp
import torch
torch.manual_seed(0)

t = torch.tensor([-1, 0.5, 2, 0.8])
clamped_t = torch.clamp(t, min=0, max=1)
# clamped_t的值会是[0, 0.5, 1, 0.8]
