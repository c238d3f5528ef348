# From notes 004, block 21: 梯度累计
import torch
from torch import optim
torch.manual_seed(0)

iters_to_accumulate = 2  # the gradient accumulation adds gradients over an effective batch of size : bs * iters_to_accumulate. If set to "1", you get the usual batch size

loss.backward()
if (it + 1) % iters_to_accumulate == 0:
  optim.zero_grad()
  optim.step()
  lr_scheduler.step()
