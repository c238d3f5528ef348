"""LeNet: __init__ builds the layers, forward runs them

The network of the notes: two convolutions and three linear layers, created in
__init__ and applied in forward. print(net) lists the five layers in the order
__init__ assigned them. net.parameters() holds 10 tensors, a weight and a bias per
layer; the first, conv1's weight, has size [6, 1, 5, 5]: 6 filters of 1 channel, 5 x 5.
(The notes write super(Net, self).__init__(), the older spelling of the same call.)

The input is one image with 1 channel of 32 x 32: (batch, channels, height, width). A
5 x 5 convolution takes 4 off each side and 2 x 2 max pooling halves it: 32 -> 28 ->
14 -> 10 -> 5. The printed shapes show it: [1, 6, 14, 14] after the first pooling,
[1, 16, 5, 5] after the second. num_flat_features multiplies every size after the
batch, 16 * 5 * 5 = 400, which is fc1's in_features, and x.view(-1, 400) makes each
image one row of 400. A 28 x 28 MNIST image would arrive with 16 * 4 * 4 = 256 and
fail in fc1: that is why the notes resize MNIST to 32 x 32.

The output is 10 numbers, one per class. Its grad_fn=<AddmmBackward0> (the notes, on
an older PyTorch, print AddmmBackward) is fc3's matrix product plus bias: only forward
is written, and autograd works out the backward pass from the operations it records.

Select net = Net(): the Model tab lists the layers with the shapes of their last call,
(1, 1, 32, 32) into conv1 and (1, 6, 28, 28) out of it; its Graph draws the same
path with F.relu, max_pool2d and view between the layers, a shape on every edge.

LeNet：__init__ 创建各层，forward 依次调用它们

这是笔记中的网络：两个卷积层和三个线性层，在 __init__ 中创建，在 forward 中使用。
print(net) 按 __init__ 中赋值的顺序列出这五层。net.parameters() 共有 10 个张量，
每层一个权重、一个偏置；第一个是 conv1 的权重，大小为 [6, 1, 5, 5]：6 个单通道的
5 x 5 卷积核。（笔记中写的 super(Net, self).__init__() 是同一个调用的旧写法。）

输入是一张单通道、32 x 32 的图像，形状为 (批大小, 通道数, 高, 宽)。5 x 5 卷积让每边
减少 4，2 x 2 最大池化让每边减半：32 -> 28 -> 14 -> 10 -> 5。打印的形状验证了这一
点：第一次池化后是 [1, 6, 14, 14]，第二次池化后是 [1, 16, 5, 5]。num_flat_features
把批维度之后的各个尺寸相乘，16 * 5 * 5 = 400，正是 fc1 的 in_features；
x.view(-1, 400) 把每张图像展平成一行 400 个数。28 x 28 的 MNIST 图像到这里只有
16 * 4 * 4 = 256 个数，会在 fc1 出错，所以笔记说要把 MNIST 图像调整为 32 x 32。

输出是 10 个数，每个类别一个。其中的 grad_fn=<AddmmBackward0>（笔记用的是旧版
PyTorch，打印为 AddmmBackward）表示 fc3 的矩阵乘法加偏置：我们只写了 forward，
反向传播由 autograd 根据它记录的运算自动求出。

选中 net = Net()：“模型”页列出各层以及它们最后一次调用时的形状，conv1 的输入是
(1, 1, 32, 32)，输出是 (1, 6, 28, 28)；“图”画出同一条路径，各层之间是 F.relu、
max_pool2d 和 view，每条边上都标有形状。

Category: nn
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):

    def __init__(self):
        super().__init__()
        # 输入图像channel：1；输出channel：6；5x5卷积核
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        # 2x2 Max pooling
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        # 如果是方阵,则可以只使用一个数字进行定义
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(-1, self.num_flat_features(x))
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

    def num_flat_features(self, x):
        size = x.size()[1:]  # 除去批处理维度的其他所有维度
        num_features = 1
        for s in size:
            num_features *= s
        return num_features


net = Net()
print(net)

params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight

input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)

# The first steps of forward, one at a time.
x = F.max_pool2d(F.relu(net.conv1(input)), (2, 2))
print(x.shape)
x = F.max_pool2d(F.relu(net.conv2(x)), 2)
print(x.shape)
print(net.num_flat_features(x))
