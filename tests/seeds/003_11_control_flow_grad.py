# From notes 003, block 11: 自动求导机制
import torch
torch.manual_seed(0)

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c
