"""A checkpoint: save model, optimizer and epoch, then resume

Training can stop at any moment: a crash, a time limit, a closed laptop. As the notes
do, this run saves after every epoch a dict with the model's state_dict, the
optimizer's state_dict and the epoch, with torch.save into model_path/model.pth (the
PyTorch tutorial names the keys model_state_dict and optimizer_state_dict; any names
work). os.makedirs(..., exist_ok=True) first creates model_path in the folder you run
the script from.

To resume, build the same model and optimizer again, then torch.load the file and
load_state_dict both. Before loading, net2 gives other outputs than net (False);
after loading, exactly the same (True). The epoch comes back as 2, the last finished
one, so training goes on with epoch current_epoch + 1: the notes' range(current_epoch,
total_epochs) would run epoch 2 twice.

The optimizer's state matters: SGD with momentum keeps a momentum_buffer for each
parameter. With it restored, one more step moves net2 exactly as it moves net: the
same weights, and torch.equal prints True. net3 gets the model's weights but a fresh
optimizer, with no momentum yet: after the same step its weights differ (False).

检查点：保存模型、优化器和 epoch，然后继续训练

训练随时可能中断：程序崩溃、超过时间限制、合上了笔记本电脑。和笔记一样，这里在每个
epoch 之后用 torch.save 把一个字典保存到 model_path/model.pth，字典中有模型的
state_dict、优化器的 state_dict 和 epoch（PyTorch 教程把键命名为 model_state_dict
和 optimizer_state_dict；名字可以随意取）。os.makedirs(..., exist_ok=True) 先在运行
脚本的文件夹中创建 model_path。

继续训练时，先重新创建同样的模型和优化器，再用 torch.load 读出文件，分别调用
load_state_dict。加载之前，net2 的输出与 net 不同（False）；加载之后完全相同
（True）。读回的 epoch 是 2，即最后完成的那个 epoch，所以应该从
current_epoch + 1 继续：笔记中的 range(current_epoch, total_epochs) 会把第 2 个
epoch 再训练一遍。

优化器的状态也很重要：带动量的 SGD 为每个参数保存一个 momentum_buffer。恢复了它，
再训练一步后 net2 的变化与 net 完全一样：权重相同，torch.equal 打印 True。net3
只加载了模型的权重，优化器是新建的，还没有动量：同样训练一步后权重就不同了
（False）。

Category: training
"""
import os

import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(16, 3)
y = torch.randn(16, 1)

net = nn.Linear(3, 1)
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
os.makedirs("model_path", exist_ok=True)

total_epochs = 3
for epoch in range(0, total_epochs):
    optimizer.zero_grad()
    loss = criterion(net(x), y)
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
    state_dict = {"net": net.state_dict(), "optimizer": optimizer.state_dict(),
                  "epoch": epoch}
    torch.save(state_dict, "model_path/model.pth")

# 中断后，加载权重继续训练
net2 = nn.Linear(3, 1)
optimizer2 = torch.optim.SGD(net2.parameters(), lr=0.1, momentum=0.9)
print(torch.equal(net(x), net2(x)))
checkpoint = torch.load("model_path/model.pth")
current_epoch = checkpoint["epoch"]
net2.load_state_dict(checkpoint["net"])
optimizer2.load_state_dict(checkpoint["optimizer"])
net2.train()
print(current_epoch)
print(list(checkpoint["optimizer"]["state"][0].keys()))
print(torch.equal(net(x), net2(x)))

# The same weights, but a fresh optimizer: no momentum.
net3 = nn.Linear(3, 1)
net3.load_state_dict(checkpoint["net"])
optimizer3 = torch.optim.SGD(net3.parameters(), lr=0.1, momentum=0.9)

# Epoch current_epoch + 1, for each of the three.
for model, opt in ((net, optimizer), (net2, optimizer2), (net3, optimizer3)):
    opt.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    opt.step()
    print(model.weight.data)
print(torch.equal(net.weight, net2.weight))
print(torch.equal(net.weight, net3.weight))
