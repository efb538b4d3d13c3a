import Quarry
