"""A Dataset of your own, batched by a DataLoader

A map-style dataset is a class with __len__ and __getitem__: len(ds) says how many
samples there are, ds[idx] returns one. DatasetDataset is the notes' class. In place
of datasets.load_from_disk, its data is a list of six samples in memory, sample i
holding input_ids [10i, 10i + 1, 10i + 2], so each number tells its sample. As in the
notes, __getitem__ returns (inputs, labels), two LongTensors of the same input ids:
ds[1] prints tensor([10, 11, 12]) twice.

DataLoader(ds, batch_size=4, shuffle=True) fetches samples one index at a time and
stacks 4 of them into one batch of shape [4, 3]. Six samples make len(dataloader) = 2
batches, the second holding the 2 samples left over (drop_last=True would drop it).
shuffle=True draws a new order every epoch: samples 0, 4, 3, 5 | 2, 1 in epoch 0,
then 2, 3, 1, 5 | 4, 0 in epoch 1. Stacking needs samples of one shape: sequences of
different lengths need padding or a collate_fn of your own.

iter(dataloader) and next(...) take a batch by hand, as the notes do inside their
training loop: its first column, [50, 20, 0, 30], is samples 5, 2, 0 and 3, a third
order.

自己写一个 Dataset，交给 DataLoader 分批

map 风格的数据集是一个实现了 __len__ 和 __getitem__ 的类：len(ds) 给出样本数，
ds[idx] 返回一个样本。DatasetDataset 就是笔记中的类；这里不用
datasets.load_from_disk，而是用内存中一个含 6 个样本的列表代替，第 i 个样本的
input_ids 是 [10i, 10i + 1, 10i + 2]，从每个数都能看出它来自哪个样本。__getitem__
返回一个由 LongTensor 组成的元组 (输入, 标签)；和笔记一样，标签就是输入的 id 本身：
ds[1] 打印两次 tensor([10, 11, 12])。

DataLoader(ds, batch_size=4, shuffle=True) 按下标逐个取出样本，再把 4 个样本堆叠成
形状为 [4, 3] 的一个批次。6 个样本得到 len(dataloader) = 2 个批次，第二个批次是剩下
的 2 个样本（drop_last=True 会丢掉它）。shuffle=True 在每个 epoch 重新打乱顺序：
第 0 个 epoch 是样本 0、4、3、5 | 2、1，第 1 个 epoch 是 2、3、1、5 | 4、0。堆叠要求
样本形状相同：长度不同的序列需要先补齐，或者自己写 collate_fn。

iter(dataloader) 和 next(...) 手动取出一个批次，笔记在训练循环中就是这样做的：它的
第一列 [50, 20, 0, 30] 是样本 5、2、0、3，又是另一种顺序。

Category: training
"""
import torch
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(0)

# In place of datasets.load_from_disk(args.dataset_path): six samples in memory.
dataset = [{"input_ids": [0, 1, 2]}, {"input_ids": [10, 11, 12]},
           {"input_ids": [20, 21, 22]}, {"input_ids": [30, 31, 32]},
           {"input_ids": [40, 41, 42]}, {"input_ids": [50, 51, 52]}]


class DatasetDataset(Dataset):
    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, idx):
        return (
            torch.LongTensor(self.dataset[idx]["input_ids"]),
            torch.LongTensor(self.dataset[idx]["input_ids"]),
        )


ds = DatasetDataset(dataset)
print(len(ds))
print(ds[1])

dataloader = DataLoader(ds, batch_size=4, shuffle=True)
print(len(dataloader))
for epoch in range(2):
    for input_ids, labels in dataloader:
        print(epoch, input_ids.shape, labels.shape)
        print(input_ids)

generator = iter(dataloader)
input_ids, labels = next(generator)  # 获取数据的输入和输出
print(input_ids[:, 0])
print(torch.equal(input_ids, labels))
