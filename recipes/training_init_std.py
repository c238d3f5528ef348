"""Initialisation and the spread of layer outputs

A layer computes x @ W. If the inputs have standard deviation 1 and W has n = 64 rows
of independent numbers with standard deviation s, each output adds up 64 products and
has a standard deviation of about s * sqrt(64) = 8s. Stack layers, and this factor
multiplies layer after layer, so the scale of W decides whether the signal survives.

The recipe pushes a batch of 256 samples through four tanh layers (the same weight in
each layer, to keep it short) with three scales, and prints the standard deviation
after each layer. N(0, 0.01): the outputs shrink by about 0.08 per layer and vanish.
N(0, 1): the sums are around 8, tanh saturates at -1 and 1, and its gradient there is
almost 0. Xavier with the gain of tanh, s = (5 / 3) / sqrt(64), about 0.21: the
spread settles near 0.66 and stays there.

ReLU zeroes half of its inputs, so it needs twice the variance: Kaiming
initialisation, s = sqrt(2 / 64), keeps ReLU layers steady near 0.75, where plain
Xavier, s = 1 / sqrt(64), loses about a third of the spread in every layer.
init_depth50 trains a 50-layer network to show what this does to learning.

初始化与各层输出的分布

一层网络计算 x @ W。如果输入的标准差为 1，而 W 有 n = 64 行、彼此独立、标准差为
s 的数，那么每个输出是 64 个乘积之和，标准差约为 s * sqrt(64) = 8s。把多层叠起来，
这个因子一层层相乘，所以 W 的尺度决定了信号能否保留下来。

这个配方把一批 256 个样本送进四个 tanh 层（为简短起见，每层用同一个权重），比较
三种尺度，并打印每层之后的标准差。N(0, 0.01)：输出每层缩小到约 0.08 倍，最后几乎
消失。N(0, 1)：和的大小约为 8，tanh 在 -1 和 1 处饱和，而那里的梯度几乎为 0。
带 tanh 增益的 Xavier，s = (5 / 3) / sqrt(64)，约为 0.21：标准差稳定在 0.66
左右，不再变化。

ReLU 会把一半的输入置零，所以需要两倍的方差：Kaiming 初始化，
s = sqrt(2 / 64)，能让 ReLU 层的标准差稳定在 0.75 左右；而不带增益的 Xavier，
s = 1 / sqrt(64)，每过一层都会损失大约三分之一。
init_depth50 训练一个 50 层的网络，展示这对学习有什么影响。

Category: training
"""
import torch

torch.manual_seed(0)
x = torch.randn(256, 64)
w = torch.randn(64, 64)

# Too small: N(0, 0.01).
small1 = torch.tanh(x @ (w * 0.01))
small2 = torch.tanh(small1 @ (w * 0.01))
small3 = torch.tanh(small2 @ (w * 0.01))
small4 = torch.tanh(small3 @ (w * 0.01))
print(torch.stack((small1.std(), small2.std(), small3.std(), small4.std())))

# Too large: N(0, 1), tanh saturates.
large1 = torch.tanh(x @ w)
large2 = torch.tanh(large1 @ w)
large3 = torch.tanh(large2 @ w)
large4 = torch.tanh(large3 @ w)
print(torch.stack((large1.std(), large2.std(), large3.std(), large4.std())))
print(large4.abs().mean())

# Xavier with the gain of tanh: std (5 / 3) / sqrt(64).
xavier1 = torch.tanh(x @ (w * (5 / 3 / 8)))
xavier2 = torch.tanh(xavier1 @ (w * (5 / 3 / 8)))
xavier3 = torch.tanh(xavier2 @ (w * (5 / 3 / 8)))
xavier4 = torch.tanh(xavier3 @ (w * (5 / 3 / 8)))
print(torch.stack((xavier1.std(), xavier2.std(), xavier3.std(), xavier4.std())))

# ReLU layers: plain Xavier (std 1 / sqrt(64)) fades, Kaiming (std sqrt(2 / 64)) holds.
faded1 = torch.relu(x @ (w * 0.125))
faded2 = torch.relu(faded1 @ (w * 0.125))
faded3 = torch.relu(faded2 @ (w * 0.125))
faded4 = torch.relu(faded3 @ (w * 0.125))
print(torch.stack((faded1.std(), faded2.std(), faded3.std(), faded4.std())))
kaiming1 = torch.relu(x @ (w * (2 / 64) ** 0.5))
kaiming2 = torch.relu(kaiming1 @ (w * (2 / 64) ** 0.5))
kaiming3 = torch.relu(kaiming2 @ (w * (2 / 64) ** 0.5))
kaiming4 = torch.relu(kaiming3 @ (w * (2 / 64) ** 0.5))
print(torch.stack((kaiming1.std(), kaiming2.std(), kaiming3.std(), kaiming4.std())))
