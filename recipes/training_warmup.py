"""Learning-rate warm-up: start small, then go full speed

The run of training_explodes uses a learning rate of 0.3 from the first step and
diverges at step 30. Here the same rate is reached gradually: the LinearLR scheduler
multiplies it by a factor that rises from 1 / 50 to 1 over the first 50 steps, so
the learning rate (the last column) is 0.006 at step 0 and the full 0.3 from step 50
on. The run does not explode, and once warmed up it keeps training at the rate that
destroyed the baseline: its loss ends near 0.05.

At the start the weights are random and the gradients large and unreliable; small
steps let the network settle into a calmer region first. Warm-up is standard for
transformers and for Adam with large learning rates. Try 10 warm-up steps
(start_factor=1 / 10, total_iters=10): too short, and the run explodes again.

学习率预热：先小步走，再全速前进

training_explodes 从第一步起就使用 0.3 的学习率，在第 30 步发散。这里同样的学习率
是逐渐达到的：LinearLR 调度器给它乘上一个系数，这个系数在前 50 步内从 1 / 50 升到
1，所以学习率（最后一列）在第 0 步是 0.006，从第 50 步起才是完整的 0.3。训练没有
发散，预热之后它以曾经毁掉对照组的学习率继续训练：最后损失约为 0.05。

刚开始时权重是随机的，梯度又大又不可靠；先迈小步，网络就能先进入一个比较平缓的
区域。预热是 Transformer 和使用大学习率的 Adam 的标准做法。试试只预热 10 步
（start_factor=1 / 10, total_iters=10）：太短了，训练又会发散。

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
# the learning rate rises from lr / 50 to lr over 50 steps
scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1 / 50, total_iters=50)

print("step", "loss", "val_loss", "lr")
for step in range(steps):
    batch = torch.randint(0, len(x_train), (batch_size,))  # a random batch
    optimizer.zero_grad()
    loss = loss_fn(model(x_train[batch]), y_train[batch])
    loss.backward()
    optimizer.step()
    if step % 10 == 0 or step == steps - 1:
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val)
        lr = optimizer.param_groups[0]["lr"]  # this step's
        print(step, round(loss.item(), 4), round(val_loss.item(), 4), round(lr, 4))
        if not math.isfinite(loss.item()):
            print("training diverged")
            break
    scheduler.step()  # the learning rate of the next step
