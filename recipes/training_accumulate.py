"""Gradient accumulation: four batches of 16 act as one batch of 64

A GPU that cannot hold a batch of 64 can still train as if it did. Each optimizer
step here runs accumulate = 4 batches of 16, divides each loss by 4, and calls
backward on each: the gradients add up in .grad (backward adds, it never replaces),
and their sum is the gradient of the mean loss over all 64 samples. Only then does
the optimizer step, once; zero_grad clears .grad before the next step. The printed
loss is total, the sum of the four divided losses: the mean over the 64 samples.

Compare the printed losses with training_big_batch, which uses batches of 64: they
are the same, falling from 0.67 to about 0.14. Four torch.randint draws of 16 are the
same numbers as one draw of 64, so the four batches hold exactly the samples of one
batch of 64. Layers that look at the batch itself, such as BatchNorm, would break the
match: they see 16 samples at a time.

梯度累积：4 个大小为 16 的批次相当于 1 个大小为 64 的批次

显存装不下 64 个样本的 GPU，仍然可以像用 64 个样本那样训练。这里每次优化器更新都
运行 accumulate = 4 个大小为 16 的批次，把每个损失除以 4，并分别调用 backward：
梯度在 .grad 中累加（backward 只会累加，从不替换），它们的和就是全部 64 个样本平均
损失的梯度。然后优化器才更新一次；zero_grad 在下一步之前清空 .grad。打印的损失是
total，即四个除过的损失之和：64 个样本的平均损失。

把打印出的损失与使用 64 个样本一批的 training_big_batch 比较：它们完全相同，都从
0.67 降到 0.14 左右。torch.randint 抽 4 次、每次 16 个数，与一次抽 64 个数得到的
数相同，所以这 4 个批次正好包含一个大小为 64 的批次中的样本。像 BatchNorm 这样依赖
批次本身的层会破坏这种一致性：它们每次只看到 16 个样本。

Category: training
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cpu"
steps = 40
batch_size = 16
accumulate = 4  # batches per optimizer step


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
    optimizer.zero_grad()
    total = 0.0
    for _ in range(accumulate):
        batch = torch.randint(0, len(x_train), (batch_size,))  # a random batch
        loss = loss_fn(model(x_train[batch]), y_train[batch]) / accumulate
        loss.backward()  # adds to each parameter's .grad
        total += loss.item()
    optimizer.step()
    if step % 5 == 0 or step == steps - 1:
        with torch.no_grad():
            val_loss = loss_fn(model(x_val), y_val)
        print(step, round(total, 4), round(val_loss.item(), 4))
        if not math.isfinite(total):
            print("training diverged")
            break
