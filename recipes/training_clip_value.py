"""Gradient clipping by value: every element capped

The run of training_explodes, which diverges at step 30, with
nn.utils.clip_grad_value_(model.parameters(), 0.05) before each optimizer step: every
single gradient element is clamped into [-0.05, 0.05]. The run no longer explodes and
the loss ends below 0.1, but more unevenly than with clipping by norm: on the way it
jumps between about 0.05 and 0.26.

Clipping by value changes the direction of the step: the large components are cut
while the small ones are kept, so the update no longer points straight down the
slope. It is simple and cheap, but the right threshold depends on the size of the
gradients, which differs from layer to layer. Compare with training_clip_norm.

按值裁剪梯度：每个元素都有上限

仍然是在第 30 步发散的 training_explodes，只是在每次优化器更新之前调用
nn.utils.clip_grad_value_(model.parameters(), 0.05)：每一个梯度元素都被限制在
[-0.05, 0.05] 之内。训练不再发散，最后损失低于 0.1，但比按范数裁剪更不平稳：
途中在 0.05 到 0.26 左右之间跳动。

按值裁剪会改变更新的方向：大的分量被截断，小的分量保持不变，所以更新不再沿着
最陡的方向下降。它简单、开销小，但合适的阈值取决于梯度的大小，而各层的梯度大小
并不相同。请与 training_clip_norm 比较。

Category: training
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cpu"
steps = 100
batch_size = 32


def make_sin(n, noise):
    """y = sin(x) plus noise, for x in [-pi, pi]."""
    x = (2 * torch.rand(n, 1) - 1) * math.pi
    return x, torch.sin(x) + noise * torch.randn(n, 1)


x, y = make_sin(320, noise=0.05)
x_val, y_val = x[:64].to(device), y[:64].to(device)  # held out
x_train, y_train = x[64:].to(device), y[64:].to(device)

model = nn.Sequential(
    nn.Linear(1, 32), nn.Tanh(),
    nn.Linear(32, 32), nn.Tanh(),
    nn.Linear(32, 1),
).to(device)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)

print("step", "loss", "val_loss")
for step in range(steps):
    batch = torch.randint(0, len(x_train), (batch_size,))  # a random batch
    optimizer.zero_grad()
    loss = loss_fn(model(x_train[batch]), y_train[batch])
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 0.05)
    optimizer.step()
    if step % 10 == 0 or step == steps - 1:
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val)
        print(step, round(loss.item(), 4), round(val_loss.item(), 4))
        if not math.isfinite(loss.item()):
            print("training diverged")
            break
