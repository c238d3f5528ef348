"""gather: pick elements with an index tensor

torch.gather(x, 1, index) builds a tensor shaped like index: along dim 1,
out[i][j] = x[i][index[i][j]]. Each row of index lists which columns of that row
of x to take, in any order, repeats allowed.

Select the step y, open the "Op explained" tab and hover a cell of y: the element
of x it came from lights up, and so does the entry of index that chose it. Try an
index entry of 4 to see the error a column that does not exist gives.

The classic use picks one element per row: the score of the right class for each
sample. labels holds one column per row, shaped (3, 1) because index needs as many
dimensions as x; squeeze(1) then turns the (3, 1) result into 3 numbers.

gather：用下标张量挑选元素

torch.gather(x, 1, index) 构造一个形状与 index 相同的张量：沿 dim 1，
out[i][j] = x[i][index[i][j]]。index 的每一行列出要从 x 的同一行中取哪些列，
顺序任意，也可以重复。

选中步骤 y，打开“运算图解”标签页，把鼠标停在 y 的某个格子上：它来自 x 的
哪个元素会被高亮，选中它的 index 元素也会被高亮。把 index 中的某个值改成 4，
看看取一个不存在的列会得到什么错误。

最典型的用法是每行挑一个元素：为每个样本取出正确类别的分数。labels 每行给出一个
列号，形状是 (3, 1)，因为 index 的维数必须和 x 相同；然后 squeeze(1) 把 (3, 1)
的结果变成 3 个数。

Category: indexing
"""
import torch

# Three rows of four scores.
x = torch.arange(12.0).view(3, 4)

# For each row, the columns to pick: row 0 takes column 3, then column 0.
index = torch.tensor([[3, 0], [1, 1], [2, 0]])
y = torch.gather(x, 1, index)
print(y)

# One element per row: the column of each row's label.
labels = torch.tensor([[2], [0], [3]])
picked = x.gather(1, labels).squeeze(1)
print(picked)
