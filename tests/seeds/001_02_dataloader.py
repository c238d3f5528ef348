# From notes 001, block 2: torch.utils.data.DataLoader
import torch
torch.manual_seed(0)

# --- pasted from earlier block 1 of the same notes: the DatasetDataset class ---
class DatasetDataset(torch.utils.data.Dataset):
    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    def __getitem__(self, idx):
        return (
            torch.LongTensor(self.dataset[idx]["input_ids"]),
            torch.LongTensor(self.dataset[idx]["input_ids"]),
        )
# --- block 2 (the example itself) ---
torch.utils.data.DataLoader(
    DatasetDataset(dataset),
    batch_size=args.batch_size,
    shuffle=True
)
