"""A learning rate too large: LeNet's weights blow apart, then its ReLUs die

The LeNet lesson (training_lenet) line for line, with one change: lr=0.1 instead of
0.01. For 20 steps it learns faster: at step 20 the held-out accuracy is 0.89. Then the
steps overshoot. Open the Training tab's Distributions page, a row of bands per layer:
from step 20 the weights' bands blow apart (net.fc1's weights, all within 0.06 of 0 at
the start, reach 3.1 by step 70; net.conv1's go from 0.2 to 1.3), the loss climbs back
to 2.3 and the accuracy falls to chance, 0.09.

The gradients' bands tell why it never recovers: from step 50 on, every gradient of
net.conv1 and net.fc1 is exactly 0, and by step 80 net.fc3's too. The ReLU after
net.fc2 now outputs 0 for every image: no gradient passes it, and nothing below it can
learn again. A dead ReLU layer looks like that: its gradients' bands collapse onto 0.
Set lr=0.01 again and run: the bands stay narrow and the loss falls to 0.004.

学习率过大：LeNet 的权重炸开，然后 ReLU 死掉

和 LeNet 课程（training_lenet）逐行相同，只改了一处：lr=0.1，而不是 0.01。前 20 步
它学得更快：第 20 步时验证准确率是 0.89。随后每一步都迈得太大。打开“训练”页的
“分布”，每层一行色带：从第 20 步起，权重的色带炸开（net.fc1 的权重开始时都在 0
附近 0.06 以内，到第 70 步达到 3.1；net.conv1 的从 0.2 增长到 1.3），损失回到 2.3，
准确率降到随机水平 0.09。

梯度的色带说明了它为什么再也恢复不了：从第 50 步起，net.conv1 和 net.fc1 的每个
梯度都恰好是 0，到第 80 步 net.fc3 的也是。net.fc2 之后的 ReLU 对每张图像都输出
0：梯度无法穿过它，它下面的层再也学不动了。ReLU 层死掉就是这个样子：它的梯度色带
塌缩到 0。把 lr 改回 0.01 再运行：色带保持很窄，损失降到 0.004。

Category: training
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cpu"
steps = 100
batch_size = 32


def make_bars(n):
    """n noisy 1 x 32 x 32 images with one bright bar each, and their labels."""
    images = 0.5 * torch.randn(n, 1, 32, 32)
    labels = torch.randint(0, 10, (n,))
    for i, label in enumerate(labels):
        start = 4 + 5 * (label % 5)  # row or column 4, 9, 14, 19 or 24
        if label < 5:
            images[i, 0, start:start + 3, :] += 1.0  # a horizontal bar, 3 pixels thick
        else:
            images[i, 0, :, start:start + 3] += 1.0  # a vertical bar
    return images, labels


class Net(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


images, labels = make_bars(500)
x_val, y_val = images[:100].to(device), labels[:100].to(device)  # held out
x_train, y_train = images[100:].to(device), labels[100:].to(device)

net = Net().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)

print("step", "loss", "val_accuracy")
for step in range(steps):
    batch = torch.randint(0, len(x_train), (batch_size,))  # a random batch
    optimizer.zero_grad()
    loss = criterion(net(x_train[batch]), y_train[batch])
    loss.backward()
    optimizer.step()
    if step % 10 == 0 or step == steps - 1:
        with torch.no_grad():
            correct = (net(x_val).argmax(dim=1) == y_val).sum().item()
        print(step, round(loss.item(), 4), correct / len(y_val))
