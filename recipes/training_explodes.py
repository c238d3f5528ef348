"""A run that explodes: the baseline for clipping and warm-up

A small tanh network learns y = sin(x) with SGD, momentum 0.9 and a learning rate of
0.3. That is too much: the first updates overshoot, the weights grow, the gradients
grow with them, and each step makes the next one larger. The printed loss is 0.94 at
step 0, about 9e13 at step 10 and 2e32 at step 20; at step 30 it is nan, and the
loop prints "training diverged" and stops.

This run is the baseline of three lessons that keep every line of it and add one:
gradient clipping by norm (training_clip_norm), by value (training_clip_value), and a
learning-rate warm-up (training_warmup). Open them side by side, or change lr=0.3
here: with lr=0.1 the same loop trains without any help, to a loss of about 0.02.

一次发散的训练：梯度裁剪和预热的对照组

一个使用 tanh 的小网络用 SGD（动量 0.9，学习率 0.3）学习 y = sin(x)。这个学习率
太大了：最初的几次更新冲过了头，权重变大，梯度也跟着变大，每一步都让下一步更大。
打印的损失在第 0 步是 0.94，第 10 步约为 9e13，第 20 步约为 2e32；到第 30 步变成
nan，循环打印“training diverged”并停止。

这次训练是三节课的对照组，它们保留这里的每一行代码，只加一行：按范数裁剪梯度
（training_clip_norm）、按值裁剪梯度（training_clip_value），以及学习率预热
（training_warmup）。把它们并排打开，或者修改这里的 lr=0.3：lr=0.1 时，同样的
循环不需要任何帮助也能训练，损失降到 0.02 左右。

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
    optimizer.step()
    if step % 10 == 0 or step == steps - 1:
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val)
        print(step, round(loss.item(), 4), round(val_loss.item(), 4))
        if not math.isfinite(loss.item()):
            print("training diverged")
            break
