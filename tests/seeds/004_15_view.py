# From notes 004, block 15: view
import torch
torch.manual_seed(0)

X = torch.rand(3,4,5)
X.shape # 3,4,5
X_ = X.view(3*4,5) 
X_shape # 12,5
