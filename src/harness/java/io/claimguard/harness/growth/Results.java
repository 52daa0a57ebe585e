package io.claimguard.harness.growth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The figures by operation and size, printed as a table with the trend and written as Markdown and JSON. */
final class Results {

    private record Figure(String unit, Map<Long, Double> bySize) {
    }

    private final Map<String, Figure> figures = new LinkedHashMap<>();

    void put(String operation, long size, double value, String unit) {
        figures.computeIfAbsent(operation, o -> new Figure(unit, new LinkedHashMap<>())).bySize().put(size, value);
    }

    void write(Path directory, List<Long> sizes, String stamp) throws IOException {
        String markdown = markdown(sizes);
        System.out.println();
        System.out.print(markdown);
        Files.createDirectories(directory);
        Files.writeString(directory.resolve("growth-" + stamp + ".md"), markdown);
        Files.writeString(directory.resolve("growth-" + stamp + ".json"), json());
        System.out.println("written: " + directory.resolve("growth-" + stamp + ".md") + " and .json");
    }

    private String markdown(List<Long> sizes) {
        StringBuilder table = new StringBuilder("| operation | unit |");
        for (long size : sizes) {
            table.append(String.format(Locale.ROOT, " %,d audits |", size));
        }
        table.append(" trend |\n|---|---|");
        table.append("---:|".repeat(sizes.size())).append("---|\n");
        for (Map.Entry<String, Figure> figure : figures.entrySet()) {
            table.append("| ").append(figure.getKey()).append(" | ").append(figure.getValue().unit()).append(" |");
            for (long size : sizes) {
                Double value = figure.getValue().bySize().get(size);
                table.append(' ').append(value == null ? "-" : format(value)).append(" |");
            }
            table.append(' ').append(trend(figure.getValue(), sizes)).append(" |\n");
        }
        return table.toString();
    }

    /** The growth of the figure between the first and the last size, beside the growth of the rows. */
    private static String trend(Figure figure, List<Long> sizes) {
        List<Long> measured = new ArrayList<>();
        for (long size : sizes) {
            if (figure.bySize().containsKey(size)) {
                measured.add(size);
            }
        }
        if (measured.size() < 2) {
            return "";
        }
        long first = measured.get(0);
        long last = measured.get(measured.size() - 1);
        double from = figure.bySize().get(first);
        double to = figure.bySize().get(last);
        if (from <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, "x%.2f for x%.0f rows", to / from, (double) last / first);
    }

    private static String format(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.3g", value);
    }

    private String json() {
        StringBuilder json = new StringBuilder("{\"operations\": [\n");
        boolean first = true;
        for (Map.Entry<String, Figure> figure : figures.entrySet()) {
            json.append(first ? "  " : ",\n  ");
            first = false;
            json.append("{\"operation\": \"").append(figure.getKey().replace("\"", "'")).append("\", \"unit\": \"")
                    .append(figure.getValue().unit()).append("\", \"by_size\": {");
            boolean firstSize = true;
            for (Map.Entry<Long, Double> value : figure.getValue().bySize().entrySet()) {
                json.append(firstSize ? "" : ", ").append('"').append(value.getKey()).append("\": ")
                        .append(Double.isNaN(value.getValue()) ? "null" : String.format(Locale.ROOT, "%.4f", value.getValue()));
                firstSize = false;
            }
            json.append("}}");
        }
        return json.append("\n]}\n").toString();
    }
}
