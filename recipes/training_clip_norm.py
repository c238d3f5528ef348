"""Gradient clipping by norm tames a run that explodes

The same network, data, optimizer and learning rate as training_explodes, which
diverges at step 30, with one line added: before each optimizer step,
nn.utils.clip_grad_norm_(model.parameters(), 0.5) measures the norm of all the
gradients together, as one long vector, and when it is larger than 0.5 scales every
gradient down by the same factor. The direction of the step is kept; only its length
is capped. Now the loss falls to about 0.02 by the last step.

Clipping by norm is the usual choice (transformers use 1.0): small gradients are
untouched, and a sudden spike cannot throw the weights far away. Try 5 instead of
0.5: the run no longer explodes, but its loss jumps between about 2 and 30, far from
the curve. Delete the clip line to see it explode again.

按范数裁剪梯度，驯服一次发散的训练

网络、数据、优化器和学习率都与 training_explodes 相同（那次训练在第 30 步发散），
只加了一行：每次优化器更新之前，nn.utils.clip_grad_norm_(model.parameters(), 0.5)
把所有梯度合在一起当作一个长向量，计算它的范数；如果大于 0.5，就把每个梯度按同一个
比例缩小。更新的方向保持不变，只是限制了步长。现在损失在最后一步降到大约 0.02。

按范数裁剪是常用的做法（Transformer 用 1.0）：小的梯度不受影响，突然出现的尖峰
也不会把权重甩得很远。试着把 0.5 改成 5：训练不再发散，但损失在 2 到 30 左右之间
跳动，离正弦曲线还很远。删掉裁剪那一行，它又会发散。

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
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    if step % 10 == 0 or step == steps - 1:
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val)
        print(step, round(loss.item(), 4), round(val_loss.item(), 4))
        if not math.isfinite(loss.item()):
            print("training diverged")
            break
