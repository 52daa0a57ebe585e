package io.claimguard.explorer;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.webmvc.autoconfigure.error.ErrorViewResolver;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.ModelAndView;

/**
 * An error a browser asks for (it accepts HTML) as a page in the explorer's style: what the status means to a person
 * and where to go on, the path asked for (escaped like every value), never an exception's message or a stack trace.
 * A client that asks for JSON keeps Boot's JSON answer.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class ErrorPages implements ErrorViewResolver {

    @Override
    public ModelAndView resolveErrorView(HttpServletRequest request, HttpStatus status, Map<String, Object> model) {
        ModelAndView page = new ModelAndView("explorer/error", status);
        page.addObject("status", status.value());
        page.addObject("title", title(status));
        page.addObject("explanation", explanation(status));
        page.addObject("path", model.get("path"));
        page.addObject("signedIn", request.getUserPrincipal() != null);
        return page;
    }

    static String title(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> "Not found";
            case FORBIDDEN -> "Not allowed";
            case BAD_REQUEST -> "Not understood";
            default -> status.is5xxServerError() ? "Something went wrong" : status.getReasonPhrase();
        };
    }

    static String explanation(HttpStatus status) {
        return switch (status) {
            case NOT_FOUND -> "There is no such page, or no row with this id: an audit or dead letter id is a number the"
                    + " lists and the search show.";
            case FORBIDDEN -> "The explorer only shows pages (GET) to an operator who is logged in; this address or"
                    + " method is not one of them.";
            case BAD_REQUEST -> "A part of the address could not be read (an id that is not a number, a parameter missing).";
            default -> status.is5xxServerError()
                    ? "The page could not be made: the database may be away or slow. The service's log says why;"
                            + " try again in a moment."
                    : "The request was not answered with a page.";
        };
    }
}
