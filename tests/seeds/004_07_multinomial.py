# From notes 004, block 7: multinomial
import torch
torch.manual_seed(0)

import torch

# torch.multinomial(input, num_samples, replacement=False, out=None)
# 假设我们有一个概率分布张量 ,按概率值返回
prob_dist = torch.tensor([0.1, 0.5, 0.4])
# 从这个分布中无放回地抽取2个样本 （默认是不放回的）

nums = torch.tensor([0.5, 0.4,0.1])
for _ in range(10):
    print(torch.multinomial(nums, 1))
tensor([0])
tensor([0])
tensor([0])
tensor([0])
tensor([2])
tensor([1])
tensor([0])
tensor([1])
tensor([0])
tensor([1])



nums = torch.tensor([0.1,0.9])
for _ in range(10):
    print(torch.multinomial(nums, 2))
    
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
tensor([1, 0])
    
  
nums = torch.tensor([0.9,0.1])
for _ in range(10):
    print(torch.multinomial(nums, 2))
tensor([0, 1])
tensor([0, 1])
tensor([0, 1])
tensor([0, 1])
tensor([1, 0])
tensor([0, 1])
tensor([0, 1])
tensor([0, 1])
tensor([0, 1])
tensor([0, 1])

nums = torch.tensor([0.99,0.11])
for _ in range(10):
    print(torch.multinomial(nums, 2, replacement=True))
tensor([0, 1])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
tensor([0, 0])
