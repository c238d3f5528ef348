"""Sequential, ModuleList and ModuleDict

Three containers hold submodules so that their parameters belong to the model.
nn.Sequential runs its modules in order: calling it calls each one on the
output of the one before. nn.ModuleList is only a list: it has no forward, so
you call its items yourself, in whatever order forward needs. nn.ModuleDict is
a dict of modules looked up by name, handy for several heads on one body.

The names in state_dict() show where each parameter lives: "0.weight" is the
weight of seq[0], "heads.box.bias" the bias of heads["box"]. Select net = TwoHeads()
and the Model tab shows the same nesting as a tree: body (a Sequential), blocks (a
ModuleList, items 0 and 1), heads (a ModuleDict, label and box), each layer with the
shapes of its last call; its Graph shows the order forward called them in, and
heads.label is not in it: forward never calls it (the recipe does, on its own line).
Change a layer's size and watch the shapes that follow it.

Sequential、ModuleList 和 ModuleDict

三种容器用来保存子模块，让子模块的参数归属于整个模型。nn.Sequential 按顺序
运行其中的模块：调用它时，每个模块都以前一个模块的输出作为输入。
nn.ModuleList 只是一个列表：它没有 forward，需要你自己按 forward 的需要依次
调用其中的元素。nn.ModuleDict 是按名字查找的模块字典，适合在同一个主干上
接多个输出头。

state_dict() 中的名字说明了每个参数的位置："0.weight" 是 seq[0] 的权重，
"heads.box.bias" 是 heads["box"] 的偏置。选中 net = TwoHeads()，“模型”页用一棵树
显示同样的嵌套：body（Sequential）、blocks（ModuleList，元素 0 和 1）、heads
（ModuleDict，label 和 box），每层都带有最后一次调用时的形状；“图”显示 forward
调用它们的顺序，其中没有 heads.label：forward 从不调用它（配方在单独的一行里调用
它）。改变某一层的大小，观察它后面的形状如何变化。
"""
import torch
import torch.nn as nn


class TwoHeads(nn.Module):
    """A shared body, a ModuleList of blocks, and two heads in a ModuleDict."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU())
        self.blocks = nn.ModuleList([nn.Linear(8, 8), nn.Linear(8, 8)])
        self.heads = nn.ModuleDict({"label": nn.Linear(8, 3), "box": nn.Linear(8, 4)})

    def forward(self, x):
        h = self.body(x)
        # A ModuleList has no forward: call its items one by one.
        h = torch.relu(self.blocks[0](h))
        h = torch.relu(self.blocks[1](h))
        return self.heads["box"](h)


torch.manual_seed(0)
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(seq)
x = torch.randn(5, 4)
# Each module's output is the next one's input: (5, 4) -> (5, 8) -> (5, 2).
y = seq(x)
print(y.shape)
# Index a Sequential like a list.
first = seq[0]
print(first.weight.shape)
print(list(seq.state_dict().keys()))
net = TwoHeads()
box = net(x)
print(box.shape)
print(len(net.blocks))
print(list(net.heads.keys()))
label = net.heads["label"](net.body(x))
print(label.shape)
print(list(net.state_dict().keys()))
