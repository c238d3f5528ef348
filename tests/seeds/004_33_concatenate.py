# From notes 004, block 33: TypeError : can't convert cuda:0 device type tensor to numpy
import torch
import numpy as np
torch.manual_seed(0)

np.concatenate((a,b),axis=1)
torch.cat((a,b),dim=1)
