public enum QuarryVersion { public static let string = "0.1.0" }
