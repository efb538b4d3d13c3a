/// The terminal browser's screens; the browser issue fills it in.
public enum QuarryBrowser {}
