"""A token embedding and a linear head: asan-embedding.test imports it."""
import torch
class Emb(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 4)
        self.fc = torch.nn.Linear(4, 3)
    def forward(self, ids):
        return self.fc(self.emb(ids)).sum(1)
