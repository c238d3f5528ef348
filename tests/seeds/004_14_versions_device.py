# From notes 004, block 14: one-hot
import torch
torch.manual_seed(0)

import torch
print(torch.__version__)
print(torch.version.cuda)
print(torch.backends.cudnn.version())


device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
