"""LeNet learns where a bright bar lies

The notes' LeNet, trained on 500 images made here: each is 1 x 32 x 32 of noise with
one bright bar, 3 pixels thick, and its label says where the bar lies: labels 0-4
are horizontal bars starting at row 4, 9, 14, 19 or 24, labels 5-9 vertical bars
starting at those columns. 400 images train, 100 are held out. The loop is the
notes' own: zero_grad, forward, criterion, backward, step, with SGD at lr=0.01 and
momentum 0.9 on random batches of 32.

For about 60 steps the loss stays near 2.3 (ln 10 = 2.30: a guess among ten
classes) and the validation accuracy below a third; then the filters find the bars,
and by step 90 the loss is about 0.1 and every held-out image is right. Watch the
layers in the lab: as the filters sharpen, the output std of net.conv1 grows from
0.33 to 0.84 by the last step and that of net.conv2 from 0.24 to 2.6, while the
gradient norms peak during the fall and shrink once it is learnt. In the Model tab,
select net = Net().to(device) and pick conv1: its six output maps follow the loop,
the bars appearing in them as the filters sharpen. Try lr=0.05: the fall comes
sooner, but the loss jumps on the way.

LeNet 学习亮条的位置

笔记中的 LeNet，在这里生成的 500 张图像上训练：每张是 1 x 32 x 32 的噪声，上面有
一条 3 像素宽的亮条，标签说明亮条的位置：标签 0-4 是从第 4、9、14、19 或 24 行
开始的水平亮条，标签 5-9 是从这些列开始的竖直亮条。400 张用于训练，100 张留作验证。循环就是笔记中的
写法：zero_grad、前向传播、criterion、backward、step，使用 SGD（lr=0.01，动量
0.9），每次随机取 32 张图像。

大约前 60 步，损失一直在 2.3 附近（ln 10 = 2.30：在十个类别之间瞎猜），验证准确率
不到三分之一；然后卷积核找到了亮条，到第 90 步损失约为 0.1，留出的图像全部分类正确。
在实验室里观察各层：随着卷积核变清晰，net.conv1 输出的标准差从 0.33 增长到最后一步
的 0.84，net.conv2 的从 0.24 增长到 2.6；梯度范数在损失下降时达到峰值，学会之后又
变小。在“模型”页选中 net = Net().to(device)，再选 conv1：它的六张输出图随循环
变化，卷积核变清晰时亮条就在图中出现。试试 lr=0.05：下降来得更早，但损失一路
跳动。

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
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

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
