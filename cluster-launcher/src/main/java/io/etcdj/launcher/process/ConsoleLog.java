package io.etcdj.launcher.process;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * goreman-style console output: {@code 15:04:05 infra1 | line}, one colour per process, names
 * padded so the bars line up. Lines from different members interleave whole, never mid-line.
 */
public final class ConsoleLog implements LogSink {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final String[] COLOURS = {"\u001b[32m", "\u001b[36m", "\u001b[35m", "\u001b[33m",
        "\u001b[34m", "\u001b[31m", "\u001b[92m", "\u001b[96m", "\u001b[95m", "\u001b[93m"};
    private static final String RESET = "\u001b[0m";

    private final PrintStream out;
    private final boolean colour;
    private final Map<String, String> colours = new ConcurrentHashMap<>();
    private volatile int width;

    public ConsoleLog(PrintStream out, boolean colour, List<String> processes) {
        this.out = out;
        this.colour = colour;
        processes.forEach(this::register);
    }

    /** Gives a process its colour and widens the name column if needed. */
    public void register(String process) {
        colours.computeIfAbsent(process, p -> COLOURS[colours.size() % COLOURS.length]);
        width = Math.max(width, process.length());
    }

    @Override
    public void line(String process, String text) {
        register(process);
        String prefix = LocalTime.now().format(TIME) + " " + pad(process) + " | ";
        String formatted = colour ? colours.get(process) + prefix + RESET + text : prefix + text;
        synchronized (out) {
            out.println(formatted);
            out.flush();
        }
    }

    private String pad(String process) {
        StringBuilder b = new StringBuilder(process);
        while (b.length() < width) {
            b.append(' ');
        }
        return b.toString();
    }

    /** Colour when writing to a terminal, unless NO_COLOR is set (the no-color.org convention). */
    public static boolean colourByDefault(Map<String, String> env) {
        return System.console() != null && !env.containsKey("NO_COLOR");
    }
}
