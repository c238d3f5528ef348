# From notes 000, block 2: torch.nonzero()
import torch
torch.manual_seed(0)

# 创建一个张量 
tensor = torch.tensor([[0, 1, 0], [2, 0, 2], [0, 0, 0]]) 
# 使用nonzero方法找到非零元素的索引 
nonzero_indices = torch.nonzero(tensor)
# 或者
nonzero_indices = tensor.nonzero()

#结果为[[0, 1], [1, 0], [1, 2]]
