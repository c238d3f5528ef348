"""Why initialisation matters: a 50-layer MLP

Fifty hidden layers of 64 tanh units, trained for 20 Adam steps on two spirals.
init_weights sets every Linear layer's weights in one place, here Xavier normal with
the gain of tanh (nn.init.calculate_gain("tanh") = 5/3), and its bias to zero. Look
at the first step's layer output std in the lab: 0.15 after the first layer, whose
two inputs are small, then between 1.0 and 1.3 from layer 10 down to layer 50. The
signal reaches the last layer, and the loss falls from 2.4 to about 0.7 (20 steps
are far too few to learn the spirals: the lesson is in each layer's numbers).

Replace the init line with nn.init.normal_(layer.weight, mean=0.0, std=0.01): each
layer shrinks the signal about 12 times, the std is exactly 0 from layer 40 on, and
the loss stays near 0.693 (ln 2: a guess between two classes). With std=1.0 the
tanh units saturate near -1 and 1, and the gradient norm of the first layer is more
than 1e15 times that of the last: the gradients explode on their way back.

为什么初始化很重要：一个 50 层的多层感知机

五十个隐藏层，每层 64 个 tanh 单元，在两条螺旋线上用 Adam 训练 20 步。init_weights
在同一个地方设置每个 Linear 层的权重：这里是 Xavier 正态初始化，增益取 tanh 的增益
（nn.init.calculate_gain("tanh") = 5/3），偏置设为零。在实验室里看第一步各层输出
的标准差：第一层之后是 0.15（它的两个输入本来就小），从第 10 层到第 50 层都在 1.0
到 1.3 之间。信号传到了最后一层，损失从 2.4 降到 0.7 左右（20 步远远不够学会螺旋线：这节
课要看的是每一层的数字）。

把初始化那一行换成 nn.init.normal_(layer.weight, mean=0.0, std=0.01)：每一层把信号
缩小约 12 倍，从第 40 层起标准差正好是 0，损失一直停在 0.693 附近（ln 2：在两个
类别之间瞎猜）。换成 std=1.0，tanh 单元在 -1 和 1 附近饱和，第一层的梯度范数是最后
一层的 1e15 倍以上：梯度在反向传播的路上爆炸了。

Category: training
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cpu"
steps = 20
batch_size = 64


def make_spirals(n, noise, classes):
    """Interleaved spiral arms, one per class: points and their labels."""
    label = torch.arange(n) % classes
    t = torch.rand(n)  # how far along its arm each point lies
    angle = 3 * math.pi * t + 2 * math.pi * label / classes
    x = torch.stack([t * torch.cos(angle), t * torch.sin(angle)], dim=1)
    return x + noise * torch.randn(n, 2), label


x, y = make_spirals(512, noise=0.05, classes=2)
x_val, y_val = x[:128].to(device), y[:128].to(device)  # held out
x_train, y_train = x[128:].to(device), y[128:].to(device)


def init_weights(layer):
    """Xavier normal for tanh: the one line to change to try another initialisation."""
    if isinstance(layer, nn.Linear):
        nn.init.xavier_normal_(layer.weight, gain=nn.init.calculate_gain("tanh"))
        nn.init.zeros_(layer.bias)


layers = [nn.Linear(2, 64), nn.Tanh()]
for _ in range(49):  # 50 hidden layers in all
    layers += [nn.Linear(64, 64), nn.Tanh()]
model = nn.Sequential(*layers, nn.Linear(64, 2)).to(device)
model.apply(init_weights)  # every Linear layer, one after another
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

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
