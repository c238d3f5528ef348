# From notes 003, block 3: Module
import torch
torch.manual_seed(0)

import torch.nn as nn
class A(nn.Module):
    def __init__(self):
        super(A, self).__init__()
        
a = A()
