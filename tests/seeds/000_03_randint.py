# From notes 000, block 3: torch.randint()
import torch
torch.manual_seed(0)

import torch
# 定义矩阵的尺寸，例如3x3
rows, cols = 3, 3
# 生成随机0或1的矩阵
matrix = torch.randint(0, 2, (rows, cols))
