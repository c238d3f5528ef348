"""one_hot and argmax: there and back again

F.one_hot(labels, num_classes) turns each class number c into a row of zeros with a
1 at position c: labels of shape (4,) become a (4, 3) int64 tensor. It is how targets
are written for a mean squared error, or a mask of "the right class".

argmax(dim=-1) goes back: the position of the largest value in each row. On a one-hot
row that is the position of its 1, so argmax(one_hot(labels)) gives labels again. On
a row of probabilities it is the predicted class, and one_hot of the prediction makes
a one-hot guess to compare with the target.

For ties argmax picks the first position. one_hot needs int64 input, and without
num_classes it uses one more than the largest label, which changes with the batch.

one_hot 与 argmax：往返转换

F.one_hot(labels, num_classes) 把每个类别编号 c 变成一行 0，只在位置 c 上是 1：
形状为 (4,) 的 labels 变成 (4, 3) 的 int64 张量。用均方误差训练时，目标就这样
表示；它也可以当作“正确类别”的掩码。

argmax(dim=-1) 反过来：给出每一行最大值的位置。对于 one-hot 行，就是 1 所在的
位置，所以 argmax(one_hot(labels)) 又得到 labels。对于一行概率，它就是预测的
类别，再对预测做 one_hot，就得到可以和目标比较的 one-hot 猜测。

出现相同的最大值时，argmax 取第一个位置。one_hot 需要 int64 输入；不给
num_classes 时，它使用最大标签加一，而这个值会随批次而变。

Category: math
"""
import torch
import torch.nn.functional as F

labels = torch.tensor([2, 0, 1, 2])
hot = F.one_hot(labels, num_classes=3)
back = hot.argmax(dim=-1)
print(hot)
print(back)
print(torch.equal(back, labels))
probs = torch.tensor([[0.1, 0.7, 0.2], [0.6, 0.3, 0.1]])
predicted = probs.argmax(dim=-1)
print(predicted)
print(F.one_hot(predicted, num_classes=3))
