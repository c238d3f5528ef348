# From notes 004, block 17: softmax
import torch
import numpy as np
torch.manual_seed(0)

def softmax(x):
  # x : vector
  exps = np.exp(x)
  return exps / np.sum(exps)
