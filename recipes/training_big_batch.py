"""One batch of 64: the reference for gradient accumulation

The same network, data and optimizer as training_accumulate, trained on batches of
64 with no accumulation: one forward pass, one backward pass and one optimizer step
per batch. A 2-32-32-2 ReLU network learns two interleaving half moons; its loss
falls from 0.67 to about 0.14, and the printed losses are the ones
training_accumulate reaches with four batches of 16 per step.

Try it in training_accumulate: set batch_size = 32 and accumulate = 2; the losses
stay the same. Change batch_size alone, and they change.

一个大小为 64 的批次：梯度累积的参照

网络、数据和优化器都与 training_accumulate 相同，但使用大小为 64 的批次训练，
不做累积：每个批次做一次前向传播、一次反向传播和一次优化器更新。一个 2-32-32-2、
使用 ReLU 的网络学习两个交错的半月形；损失从 0.67 降到 0.14 左右，打印的损失正是
training_accumulate 每步用 4 个大小为 16 的批次得到的损失。

动手试试：在 training_accumulate 中把 batch_size 设为 32，accumulate 设为 2，损失
保持不变。只改变 batch_size，损失就会改变。

Category: training
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cpu"
steps = 40
batch_size = 64


def make_moons(n, noise):
    """Two interleaving half circles: points and their labels (0 or 1)."""
    label = torch.arange(n) % 2
    angle = math.pi * torch.rand(n)
    upper = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1)
    lower = torch.stack([1 - torch.cos(angle), 0.5 - torch.sin(angle)], dim=1)
    x = torch.where(label[:, None] == 0, upper, lower) - torch.tensor([0.5, 0.25])
    return x + noise * torch.randn(n, 2), label


x, y = make_moons(640, noise=0.05)
x_val, y_val = x[:128].to(device), y[:128].to(device)  # held out
x_train, y_train = x[128:].to(device), y[128:].to(device)

model = nn.Sequential(
    nn.Linear(2, 32), nn.ReLU(),
    nn.Linear(32, 32), nn.ReLU(),
    nn.Linear(32, 2),
).to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)

print("step", "loss", "val_loss")
for step in range(steps):
    batch = torch.randint(0, len(x_train), (batch_size,))  # a random batch
    optimizer.zero_grad()
    loss = loss_fn(model(x_train[batch]), y_train[batch])
    loss.backward()
    optimizer.step()
    if step % 5 == 0 or step == steps - 1:
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val)
        print(step, round(loss.item(), 4), round(val_loss.item(), 4))
        if not math.isfinite(loss.item()):
            print("training diverged")
            break
