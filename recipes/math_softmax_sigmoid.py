"""softmax and sigmoid: from scores to probabilities

torch.sigmoid(x) = 1 / (1 + exp(-x)) squashes each number into (0, 1) on its own:
0 gives 0.5, large positive numbers come close to 1, large negative ones close to 0.
It is the probability of "yes" in a yes/no question.

torch.softmax(x, dim) exponentiates, then divides by the sum along dim, so the
entries of each slice are positive and add up to 1: a probability for each of
several classes. Larger scores get more, and the ratios depend only on the
differences between scores: adding 100 to every score changes nothing.

For two classes with scores 0 and z, softmax gives sigmoid(z) to the second: sigmoid
is the two-class softmax. For a (batch, classes) tensor, use dim=-1, so that each row
sums to 1.

softmax 与 sigmoid：从分数到概率

torch.sigmoid(x) = 1 / (1 + exp(-x)) 把每个数单独压缩到 (0, 1) 之间：0 得到
0.5，很大的正数接近 1，很大的负数接近 0。它表示一个是/否问题中“是”的概率。

torch.softmax(x, dim) 先取指数，再除以沿 dim 的和，所以每一片中的元素都是正数，
并且和为 1：给多个类别中的每一个一个概率。分数越大，分到的越多；比例只取决于分数
之间的差：给每个分数都加上 100 不会改变结果。

对于分数为 0 和 z 的两个类别，softmax 给第二个类别的概率就是 sigmoid(z)：sigmoid
就是两个类别的 softmax。对形状为 (batch, classes) 的张量要用 dim=-1，让每一行
的和为 1。

Category: math
"""
import torch

scores = torch.tensor([1.0, 2.0, 3.0])
probs = torch.softmax(scores, dim=0)
shifted = torch.softmax(scores + 100, dim=0)
print(probs)
print(probs.sum())
print(torch.allclose(probs, shifted))
squashed = torch.sigmoid(torch.tensor([-4.0, 0.0, 4.0]))
print(squashed)

# Two classes with scores 0 and 2: softmax gives sigmoid(2) to the second.
two = torch.softmax(torch.tensor([0.0, 2.0]), dim=0)
print(two)
print(torch.sigmoid(torch.tensor(2.0)))
batch = torch.tensor([[1.0, 1.0, 1.0], [0.0, 5.0, 0.0]])
print(torch.softmax(batch, dim=-1))
