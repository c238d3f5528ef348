# From notes 003, block 8: 计算图
import torch
torch.manual_seed(0)

import torch

x = torch.tensor([3.0], requires_grad=True)
y = x * 2  # y 是非叶子节点

y.retain_grad()  # 显式要求 PyTorch 保留 y 的梯度
y.backward()

print(y.grad)  # ✅ 现在可以访问，输出 1.0（因为 dy/dy = 1）
print(x.grad)  # ✅ 输出 2.0（dy/dx = 2）
