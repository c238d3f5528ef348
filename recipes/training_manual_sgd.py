"""One SGD step by hand: weight = weight - learning_rate * gradient

The notes' LeNet, one random input and a random target: MSELoss gives 0.7947.
net.zero_grad() clears the gradients first. PyTorch 2 sets them to None, so the line
before backward prints None where the notes, on an older PyTorch, print six zeros.
After loss.backward(), conv1.bias.grad holds six numbers: -0.0041, -0.0112, ...

The update is the simplest rule: weight = weight - learning_rate * gradient, for every
parameter, in place: f.data.sub_(f.grad.data * learning_rate). Going through .data
keeps autograd from recording the subtraction, so the update does not become part of
the graph (code written today says with torch.no_grad(): f.sub_(...)).

With learning_rate = 0.01 each bias moves by -0.01 times its gradient: -0.1872
becomes -0.1871 and -0.1688 becomes -0.1687, and torch.equal confirms that the new
bias is exactly the old one minus 0.01 * grad. The loss on the same input falls from
0.7947 to 0.7810. optim.SGD(net.parameters(), lr=0.01) and optimizer.step() make
this same update, and the other rules (momentum, Adam, ...) too.

手动做一步 SGD：weight = weight - learning_rate * gradient

还是笔记中的 LeNet，一个随机输入和一个随机目标：MSELoss 的值是 0.7947。先调用
net.zero_grad() 清除梯度。PyTorch 2 会把梯度设为 None，所以反向传播之前那一行打印
None，而笔记用的是旧版 PyTorch，打印的是六个 0。loss.backward() 之后，
conv1.bias.grad 中有六个数：-0.0041、-0.0112……

更新用的是最简单的规则：weight = weight - learning_rate * gradient，对每个参数原地
执行：f.data.sub_(f.grad.data * learning_rate)。通过 .data 修改，autograd 不会记录
这次减法，更新就不会成为计算图的一部分（现在的写法是在 with torch.no_grad(): 中
执行 f.sub_(...)）。

learning_rate = 0.01 时，每个偏置移动其梯度的 -0.01 倍：-0.1872 变成 -0.1871，
-0.1688 变成 -0.1687；torch.equal 确认新的偏置正好等于旧偏置减去 0.01 * grad。同一
个输入上的损失从 0.7947 降到 0.7810。optim.SGD(net.parameters(), lr=0.01) 加上
optimizer.step() 做的就是同样的更新，其他规则（动量、Adam 等）也由优化器实现。

Category: training
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
input = torch.randn(1, 1, 32, 32)
output = net(input)
target = torch.randn(10)  # 本例子中使用模拟数据
target = target.view(1, -1)  # 使目标值与数据值尺寸一致
criterion = nn.MSELoss()

loss = criterion(output, target)
print(loss)

net.zero_grad()     # 清零所有参数(parameter）的梯度缓存

print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)

loss.backward()

print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)

bias_before = net.conv1.bias.data.clone()
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)

print(bias_before)
print(net.conv1.bias.data)
print(torch.equal(net.conv1.bias.data,
                  bias_before - learning_rate * net.conv1.bias.grad))
print(criterion(net(input), target))
