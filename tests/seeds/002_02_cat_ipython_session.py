# From notes 002, block 2: torch.cat
import torch
torch.manual_seed(0)

In    [1]: torch.cat(inputs, dim=0).shape
Out[1]: torch.Size([4,  3])

In    [2]: torch.cat(inputs, dim=1).shape
Out[2]: torch.Size([2, 6])

In    [3]: torch.cat(inputs, dim=2).shape
# IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)
